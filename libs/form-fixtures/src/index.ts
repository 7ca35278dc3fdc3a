// Forms as clients send them, for tests of every tier. A lib of its own, that
// imports nothing: the form model's own specs (libs/form-definition) use it,
// and so does libs/testing, which itself builds on the form model, so neither
// depends on the other through its tests.
export * from './typeform-form.fixture';
