/** Child process for the lock test: opens PGlite on a directory and holds it until killed. */
import { PgliteSqlClient } from '../pglite-client.js';

const sql = await PgliteSqlClient.open(process.argv[2]);
process.stdout.write('locked\n');
setInterval(() => void sql.query('SELECT 1'), 1000);
