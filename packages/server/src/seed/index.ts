/** The seed: a realistic, deterministic fleet for the demo, the tests and the benchmarks. */
export {
  seedFleet,
  SEEDED_COLLECTIONS,
  type SeedOptions,
  type SeedResult,
  type ActionsWriter,
  type WrittenActions,
  type SeededCollection,
} from './fleet';
export { seedCommand, parseSeedArgs, type SeedArgs } from './command';
export { BULK_COLLECTIONS, withoutSecondaryIndexes } from './bulk';
