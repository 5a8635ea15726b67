/**
 * Secret fields, in one place: the box that seals them at rest (box.ts), the one walk over a
 * document's secret paths (walk.ts), seal / mask / reveal / reseal per resource (fields.ts), what
 * a caller reads of them (view.ts), and key rotation over the store (rotation.ts). docs/secrets.md.
 */
export { createSecretBox, isSealed, SEALED_PREFIX } from './box';
export { MASK, sealSecrets, secretFields, type SecretFields } from './fields';
export { resealStore, storeHoldsSealed } from './rotation';
export { secretView, type SecretView } from './view';
