import "server-only";
import type { Tx } from "../db";

/**
 * Runs `work` in `tx` behind a savepoint: when it throws, what it wrote is undone and the
 * error rethrown, while the transaction goes on. Without it, on PostgreSQL a failed
 * statement aborts the whole transaction. One name serves nested calls too, as a rollback
 * or release names the newest savepoint of that name.
 */
export async function withSavepoint<T>(tx: Tx, work: () => Promise<T>): Promise<T> {
  await tx.$executeRaw`SAVEPOINT gatehouse_savepoint`;
  try {
    const result = await work();
    await tx.$executeRaw`RELEASE SAVEPOINT gatehouse_savepoint`;
    return result;
  } catch (error) {
    await tx.$executeRaw`ROLLBACK TO SAVEPOINT gatehouse_savepoint`;
    throw error;
  }
}
