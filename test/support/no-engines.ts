import net from 'node:net';

/**
 * The unit tier's guard: no engine, no host, no socket. A unit test that reaches for a network
 * connection (DynamoDB Local, the queue engine, the local host) fails at once, naming it.
 */
const refuse = function (this: unknown, ...args: unknown[]): never {
  throw new Error(
    `the unit tier opens no connection (tried ${JSON.stringify(args[0])}): test this rule against in-memory ports, or move the test out of test/unit/`,
  );
};
net.Socket.prototype.connect = refuse as typeof net.Socket.prototype.connect;
