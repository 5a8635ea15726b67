#!/usr/bin/env node
// The `fleet` command: the server is TypeScript, run as it is through tsx's require hook.
require('tsx/cjs');
require('../src/cli.ts');
