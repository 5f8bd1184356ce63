// Defined by scripts/build-server.mjs; undeclared wherever TypeScript runs from source (tsx, Vitest, next dev).
declare const GATEHOUSE_SERVER_BUILD: boolean | undefined;

/** True in the compiled server that `npm start` runs from dist/ (decision 013). */
export const inServerBuild = typeof GATEHOUSE_SERVER_BUILD !== "undefined";
