/** The salt-api (rest_cherrypy) client. */
export { createSaltClient, type SaltClient } from './client';
export { eventPayload } from './normalize';
export type * from './types';
