// Defined by scripts/build-server.mjs; undeclared wherever TypeScript runs from source (tsx, Vitest, next dev).
declare const GATEHOUSE_SERVER_BUILD: boolean | undefined;

/** True in what scripts/build-server.mjs compiled into dist/: the servers, their threads and the admin CLI (decision 054). */
export const inServerBuild = typeof GATEHOUSE_SERVER_BUILD !== "undefined";
