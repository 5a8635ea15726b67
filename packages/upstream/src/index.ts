/**
 * @fleet/upstream: what the clients of the servers the service calls (salt-api, the VPN managers)
 * share, so each rule is written once: the HTTP instance (no proxy, no redirects, raw bodies,
 * every status handled by the caller), the reading of a network failure, and the words that keep
 * secrets out of messages and logs. What differs by peer (sessions, error bodies, messages) stays
 * in each client. The simulators never use it: they stand in for the peers, not for our clients.
 */
export { createUpstreamHttp, contentType, type UpstreamHttp, type UpstreamHttpOptions } from './http';
export { failureOf, type Failure } from './failure';
export { cleanMessage, MAX_MESSAGE, redact, safeUrl } from './text';
