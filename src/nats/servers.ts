/**
 * The NATS servers a node or hub connects to: one URL, or several separated by commas — the
 * servers of a cluster, so that losing the one it is connected to moves it to another (the
 * client also learns the cluster's other servers from the one it reaches). Credentials never
 * ride a URL: a command line is visible to every process on the machine.
 * @module
 */

const NATS_URL = /^(nats|tls):\/\/[^\s/@,]+(:\d+)?\/?$/;

/** The servers of `--nats`, or the reason it is not a list of NATS URLs (in a person's words). */
export function parseNatsServers(value: string): { servers: string[] } | { error: string } {
  const servers = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (servers.length === 0) return { error: 'give the NATS server\'s URL, nats://host:port (or tls://host:port); for a cluster, several separated by commas' };
  for (const url of servers) {
    if (url.includes('@')) return { error: `${redactUrl(url)} carries credentials; a command line is visible to every process: put them in a file and pass --nats-creds FILE` };
    if (!NATS_URL.test(url)) return { error: `${url} is not a NATS URL; give nats://host:port (or tls://host:port), several separated by commas for a cluster` };
  }
  return { servers };
}

/** A NATS URL (or list) without any user:password in it, for logs. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/,]*@/g, '//');
}
