// The image's HEALTHCHECK: exits 0 when this container's process answers 200 on `path` (default
// /healthz, alive; compose asks the services' /readyz, which also checks database, broker and Redis).
// Usage: node deploy/healthcheck.mjs [/path]
const path = process.argv[2] ?? '/healthz';
const port = process.env.PORT || 8080;

try {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(2500) });
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}
