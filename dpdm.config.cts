/**
 * The import-cycle check of `pnpm lint` (dpdm): every TypeScript file of the workspace, type-only
 * imports included (a cycle of types still ties the files' meanings together). Workspace packages
 * are reached through node_modules links and left out here; their own graph is checked by
 * test/architecture/layers.test.ts.
 */
module.exports = {
  files: ['engine/**/*.ts', 'resources/**/*.ts', 'packages/**/*.ts', 'test/**/*.ts'],
  exclude: 'node_modules',
  tree: false,
  warning: false,
  circular: true,
  progress: false,
  exitCode: 'circular:1',
};
