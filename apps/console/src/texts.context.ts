import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { type ConsoleTexts, englishTexts } from './console.texts';

// The texts of the language the console speaks, for every screen and view
// under the app; English where nothing provides them (a view rendered alone).
export const TextsContext = createContext<ConsoleTexts>(englishTexts);

export const useTexts = (): ConsoleTexts => useContext(TextsContext);
