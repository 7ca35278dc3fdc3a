// The six apps' configuration: each app's file holds every setting the app
// reads (its own, and the groups of libs/config it spreads), the parsed type
// and the token the app injects it by. They live in a library, not in the
// apps, so that the configuration reference, `npm start` and the deploy checks
// read exactly what each app validates at boot without importing an app.
export * from './gateway.config';
export * from './global.config';
export * from './responses.config';
export * from './webhooks.config';
export * from './dispatcher.config';
export * from './media.config';
export * from './app-config.schemas';
export * from './app-names';
