/**
 * Sending a file a route answers (a host's VPN profile): always an attachment, never shown in
 * place, never sniffed, never cached (a VPN profile holds a private key), sandboxed if a browser
 * opens it anyway. The filename is sent as an RFC 8187 `filename*` so any name is safe in the header.
 */
import type { Response } from 'express';
import type { Download } from '../definition/routes';

/** RFC 9110 §8.3.1: `type/subtype[; params]`, printable ASCII only. */
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:\s*;[\x20-\x7e]*)?$/;

/** RFC 8187 `ext-value`: attr-chars stay, everything else is %-encoded. */
function extValue(filename: string): string {
  return `UTF-8''${encodeURIComponent(filename).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/** Sends `d` as the whole answer (200). */
export function sendDownload(resp: Response, d: Download): void {
  resp.status(200);
  resp.setHeader('Content-Type', MEDIA_TYPE.test(d.contentType) ? d.contentType : 'application/octet-stream');
  resp.setHeader('Content-Length', String(d.data.length));
  resp.setHeader('Content-Disposition', `attachment; filename*=${extValue(d.filename)}`);
  // RFC 9111 §5.2.2.5: no cache, shared or private, keeps a copy.
  resp.setHeader('Cache-Control', 'no-store');
  resp.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
  resp.setHeader('X-Content-Type-Options', 'nosniff');
  resp.end(d.data);
}
