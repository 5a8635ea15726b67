/**
 * The one renderer: stored document -> Eve item, as an object or as its JSON text, both from one
 * field plan per resource, mode and projection (plan.ts, item.ts); pages in slices (page.ts).
 */
export { renderObject, renderText, planOf, type RenderOptions } from './item';
export { mediaHrefFor, renderMediaWith, type MediaHref } from './media';
export { META, visibleFields, type RenderMode } from './plan';
