/**
 * `linkUrl` resolves each kind of URL the API hands out by its own rule: `_links` hrefs relative to
 * /api/, paths (`Location`, media links without PUBLIC_URL) under the server's base, absolute
 * media links as they are, and `/` (a page's parent) as the home document.
 */
import { linkUrl } from '@fleet/client';

const BASE = 'http://fleet.test:5000/';

test.each([
  ['hosts?max_results=2&page=2', 'http://fleet.test:5000/api/hosts?max_results=2&page=2'],
  [{ href: 'hosts/web-1.fleet.test' }, 'http://fleet.test:5000/api/hosts/web-1.fleet.test'],
  ['/api/tasks/6566d7e2a1b2c3d4e5f60718', 'http://fleet.test:5000/api/tasks/6566d7e2a1b2c3d4e5f60718'],
  [
    '/api/media/6566d7e2a1b2c3d4e5f60718?expires=1&signature=s',
    'http://fleet.test:5000/api/media/6566d7e2a1b2c3d4e5f60718?expires=1&signature=s',
  ],
  ['https://cdn.fleet.test/api/media/abc?expires=1', 'https://cdn.fleet.test/api/media/abc?expires=1'],
  [{ href: '/' }, 'http://fleet.test:5000/api/'],
])('%j -> %s', (link, url) => {
  expect(linkUrl(BASE, link)).toBe(url);
});

test('a base with a path prefix keeps it', () => {
  expect(linkUrl('https://ops.test/fleet', '/api/media/x')).toBe('https://ops.test/fleet/api/media/x');
  expect(linkUrl('https://ops.test/fleet/', 'hosts')).toBe('https://ops.test/fleet/api/hosts');
});
