// The nearest generic resource engine: a Feathers v5 service over its in-memory adapter, served
// by @feathersjs/express's REST transport, paginated (25 by default, 100 at most). The query is
// Feathers' own: ?status=up&$sort[_id]=1&$limit=25&$skip=50.
'use strict';
const { feathers } = require('@feathersjs/feathers');
const expressModule = require('@feathersjs/express');
const { MemoryService } = require('@feathersjs/memory');

const express = expressModule.default || expressModule;
const store = Object.fromEntries(require(process.env.HOSTS_JSON).map((h) => [h._id, h]));

const app = express(feathers());
app.use(expressModule.json());
app.configure(expressModule.rest());
app.use('hosts', new MemoryService({ id: '_id', store, paginate: { default: 25, max: 100 } }));
app.use(expressModule.errorHandler());
app.listen(Number(process.env.PORT), '127.0.0.1').then(() => process.stdout.write('ready\n'));
