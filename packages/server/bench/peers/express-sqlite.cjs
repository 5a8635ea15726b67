// What the query costs written by hand: Express 4 and better-sqlite3, the hosts as JSON text in
// a table with their status beside them, an index on (status, _id), the count and the page each
// one SQL statement, every document of the page parsed per request. The engine's overhead on its
// own store is measured against this.
'use strict';
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const Database = require('better-sqlite3');
const express = require('express4');

const db = new Database(join(mkdtempSync(join(tmpdir(), 'fleet-peer-sqlite-')), 'hosts.db'));
db.pragma('journal_mode = WAL');
db.exec(`CREATE TABLE hosts (_id TEXT PRIMARY KEY, status TEXT, doc TEXT NOT NULL);
         CREATE INDEX hosts_by_status ON hosts (status, _id);`);
const insert = db.prepare('INSERT INTO hosts (_id, status, doc) VALUES (?, ?, ?)');
db.transaction((hosts) => {
  for (const h of hosts) insert.run(h._id, h.status, JSON.stringify(h));
})(require(process.env.HOSTS_JSON));

const total = db.prepare('SELECT count(*) FROM hosts WHERE status = ?').pluck();
const pageOf = db.prepare('SELECT doc FROM hosts WHERE status = ? ORDER BY _id LIMIT ? OFFSET ?').pluck();

const app = express();
app.get('/hosts', (req, res) => {
  const status = String(req.query.status || 'up');
  const page = Number(req.query.page) || 1;
  const perPage = Number(req.query.max_results) || 25;
  const items = pageOf.all(status, perPage, (page - 1) * perPage).map((text) => JSON.parse(text));
  res.json({ _items: items, _meta: { page, max_results: perPage, total: total.get(status) } });
});
app.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
