// The ceiling: node:http answering page 3 of the up hosts (25 items, in the API's envelope),
// computed once at start. Nothing a server does per request costs less than this.
'use strict';
const { createServer } = require('node:http');

const hosts = require(process.env.HOSTS_JSON);
const up = hosts
  .filter((h) => h.status === 'up')
  .sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
const page = Buffer.from(
  JSON.stringify({
    _items: up.slice(50, 75),
    _links: {
      self: { href: 'hosts?page=3' },
      prev: { href: 'hosts?page=2' },
      next: { href: 'hosts?page=4' },
    },
    _meta: { page: 3, max_results: 25, total: up.length },
  }),
);

createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': page.length });
  res.end(page);
}).listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
