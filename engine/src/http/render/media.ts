/**
 * How media fields render: a media id becomes `/api/media/<id>`, or the signed link the API router
 * asks for ({@link renderMediaWith}). Kept per registry, so each engine renders with its own
 * server's key; read at every render (links expire, and a router may be mounted after a render).
 */
import type { Registry } from '../../compile/registry';

/** How the value of a media field (a media id) is rendered. */
export type MediaHref = (id: string) => string;

const plainMediaHref: MediaHref = (id) => `/api/media/${id}`;
const mediaHrefs = new WeakMap<Registry, MediaHref>();

/** How `registry`'s items render their media fields. */
export function mediaHrefFor(registry: Registry): MediaHref {
  return mediaHrefs.get(registry) ?? plainMediaHref;
}

/**
 * Renders the media fields of `registry`'s items with `href` from now on (the API router's signed
 * links). The engine knows media fields, not what a file is: any resource with one gets the links.
 */
export function renderMediaWith(registry: Registry, href: MediaHref): void {
  mediaHrefs.set(registry, href);
}
