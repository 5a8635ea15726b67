// Runs once, when the MongoDB container initialises an empty data directory (the official
// image's /docker-entrypoint-initdb.d, with the root user just created): the API's own user,
// allowed to read and write its database and nothing else (docker-compose.yml).
const name = process.env.FLEET_DB_NAME || 'fleet';
const user = process.env.FLEET_DB_USER;
const pwd = process.env.FLEET_DB_PASSWORD;
if (!user || !pwd) throw new Error('FLEET_DB_USER and FLEET_DB_PASSWORD must be set (.env.example)');
db.getSiblingDB(name).createUser({ user, pwd, roles: [{ role: 'readWrite', db: name }] });
print(`created the API's user "${user}" on database "${name}"`);
