/**
 * The scale-out rig on MongoDB, whenever `MONGO_URL` names one: three `fleet serve` processes on
 * a fresh database (`fleet_rig_<random>`, dropped afterwards) behind a round-robin balancer, with
 * the simulated master and VPN server (scenario.ts). Without `MONGO_URL` the suite is skipped with
 * one printed line saying so.
 */
import { randomBytes } from 'node:crypto';
import { openMongoStore } from '../../engine/src/store/mongo';
import { databaseIn } from '../helpers/mongo-url';
import { rigScenario } from './scenario';

const MONGO_URL = process.env.MONGO_URL;

jest.setTimeout(180_000);

if (MONGO_URL === undefined || MONGO_URL === '') {
  process.stdout.write('MongoDB rig skipped: MONGO_URL is not set\n');
  describe.skip('three instances on one MongoDB (skipped: MONGO_URL is not set)', () => {
    test('runs against the MongoDB named by MONGO_URL', () => undefined);
  });
} else {
  const url = databaseIn(MONGO_URL, `fleet_rig_${randomBytes(6).toString('hex')}`);
  afterAll(async () => {
    const mongo = await openMongoStore({ url, serverSelectionTimeoutMS: 10_000 });
    await mongo.dropDatabase();
    await mongo.close();
  });
  rigScenario('MongoDB', () => url);
}
