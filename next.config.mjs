/** @type {import('next').NextConfig} */
const nextConfig = {
  // Separate build folders let several builds (a developer's and a test run's) coexist.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  reactStrictMode: true,
  // Types are checked once per run by `npm run typecheck` (part of npm test), over
  // tests and scripts too, rather than by every build.
  typescript: { ignoreBuildErrors: true },
  serverExternalPackages: ["better-sqlite3", "pg", "pino", "ioredis"],
  // A guide's page and its Markdown share a path but not a renderer: the `.md` goes to a route handler.
  async rewrites() {
    return { beforeFiles: [{ source: "/apis/:api/guides/:guide([a-z0-9-]+)\\.md", destination: "/apis/:api/guides/:guide/markdown" }] };
  },
};

export default nextConfig;
