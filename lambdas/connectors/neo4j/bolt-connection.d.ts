// Types for the one internal module of neo4j-driver that client.ts wraps (the driver's factory of Bolt
// connections; the package ships no typings for its lib/ files). Types only.
declare module 'neo4j-driver-bolt-connection/lib/connection/connection-channel.js' {
  interface ServerAddress {
    host(): string;
    resolveWith(resolved: string): ServerAddress;
  }
  const mod: { createChannelConnection: (address: ServerAddress, ...rest: unknown[]) => Promise<unknown> };
  export default mod;
}
