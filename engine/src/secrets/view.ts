/**
 * What a caller reads of secret fields, decided here for every way out of the local API (reads,
 * the answers of writes, embedded items; the HTTP answers, hooks, custom routes and integrations
 * all read through it): masked for every caller, opened only for the system principal that asks
 * (`reveal`: an integration logging in to a VPN server). The HTTP renderer writes what it is
 * given: nothing reaches it unmasked that the local API did not open for the service itself.
 */
import type { SecretBox } from '../definition/define';
import type { CallContext } from '../definition/local-api';
import { secretFields } from './fields';

/** How one read hands out its documents' secrets. */
export type SecretView = <T>(doc: T) => T;

const identity: SecretView = (doc) => doc;

/** The view of `paths` for `ctx`: opened when the system principal asks to `reveal`, else masked. */
export function secretView(
  paths: readonly string[],
  ctx: Pick<CallContext, 'principal'>,
  o: { reveal?: boolean; box: SecretBox },
): SecretView {
  const fields = secretFields(paths);
  if (fields.none) return identity;
  if (o.reveal === true && ctx.principal.system === true) return (doc) => fields.reveal(doc, o.box);
  return (doc) => fields.mask(doc);
}
