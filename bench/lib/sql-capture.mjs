// Records the SQL (text and parameters) the app issues for one GraphQL request, through the ORM's
// query log, so the baseline can send exactly those statements through the same driver.
import { clientHeaders, postGraphql } from './graphql-ops.mjs';

const TRANSACTION_CONTROL = /^\s*(begin|commit|rollback|savepoint|release)\b/i;

/**
 * Sends each operation twice to the in-process app (the first warms caches and metadata) and keeps
 * the second request's statements: { [name]: { statements: [{ sql, params }], skipped } }.
 */
export async function captureSql(app, operations) {
  const url = await app.listen();
  const logger = app.orm.config.getLogger();
  const original = logger.logQuery;
  const captured = {};
  try {
    for (const op of operations) {
      const first = await postGraphql(url, op.body, clientHeaders(op.who));
      if (first.body.errors) throw new Error(`${op.name}: ${JSON.stringify(first.body.errors)}`);
      const statements = [];
      let skipped = 0;
      logger.logQuery = (context) => {
        if (TRANSACTION_CONTROL.test(context.query)) skipped++;
        else statements.push({ sql: context.query, params: context.params ?? [] });
        return original.call(logger, context);
      };
      await postGraphql(url, op.body, clientHeaders(op.who));
      logger.logQuery = original;
      captured[op.name] = { statements, skipped };
    }
  } finally {
    logger.logQuery = original;
  }
  return captured;
}
