/** The salt-api (rest_cherrypy) client. */
export { createSaltClient, runnerChunk, wheelChunk, type SaltClient } from './client';
export { eventPayload, text } from './normalize';
export type * from './types';
