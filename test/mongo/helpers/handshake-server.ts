/**
 * A TCP server that answers MongoDB's connection handshake and nothing else: the `isMaster` /
 * `hello` a driver sends first (OP_QUERY on `admin.$cmd` before it knows the server, OP_MSG after:
 * https://github.com/mongodb/specifications/blob/master/source/message/OP_MSG.md), with the reply
 * a server of a given wire version gives. Enough to see what the real driver does with an old or
 * a future server, on a loopback port, without a MongoDB. Any other command gets an error reply.
 */
import { createServer, type Server, type Socket } from 'node:net';
import mongoose from 'mongoose';

const { BSON } = mongoose.mongo;
const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;

/** The reply of a standalone server speaking wire versions `minWireVersion`..`maxWireVersion`. */
export function helloReply(maxWireVersion: number, minWireVersion = 0): Record<string, unknown> {
  return {
    ismaster: true,
    isWritablePrimary: true,
    helloOk: true,
    maxBsonObjectSize: 16 * 1024 * 1024,
    maxMessageSizeBytes: 48_000_000,
    maxWriteBatchSize: 100_000,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId: 1,
    minWireVersion,
    maxWireVersion,
    readOnly: false,
    ok: 1,
  };
}

/** A header: length, our request id, the id answered, the op code. */
function header(length: number, responseTo: number, opCode: number): Buffer {
  const out = Buffer.alloc(16);
  out.writeInt32LE(length, 0);
  out.writeInt32LE(responseTo + 1, 4);
  out.writeInt32LE(responseTo, 8);
  out.writeInt32LE(opCode, 12);
  return out;
}

/** OP_REPLY (to an OP_QUERY): flags, cursor id 0, starting at 0, one document. */
function opReply(responseTo: number, doc: Record<string, unknown>): Buffer {
  const body = Buffer.from(BSON.serialize(doc));
  const fields = Buffer.alloc(20);
  fields.writeInt32LE(1, 16);
  return Buffer.concat([header(16 + 20 + body.length, responseTo, OP_REPLY), fields, body]);
}

/** OP_MSG: flag bits 0, one body section (kind 0). */
function opMsg(responseTo: number, doc: Record<string, unknown>): Buffer {
  const body = Buffer.from(BSON.serialize(doc));
  const fields = Buffer.alloc(5);
  return Buffer.concat([header(16 + 5 + body.length, responseTo, OP_MSG), fields, body]);
}

/** The command document of a request: OP_QUERY after its collection name and two counts; OP_MSG's body section. */
function commandOf(message: Buffer, opCode: number): Record<string, unknown> {
  if (opCode === OP_QUERY) {
    const nameEnd = message.indexOf(0, 20);
    return BSON.deserialize(message.subarray(nameEnd + 9));
  }
  return BSON.deserialize(message.subarray(21));
}

function answer(socket: Socket, message: Buffer, hello: Record<string, unknown>): void {
  const requestId = message.readInt32LE(4);
  const opCode = message.readInt32LE(12);
  const command = commandOf(message, opCode);
  const isHello = 'ismaster' in command || 'isMaster' in command || 'hello' in command;
  const reply = isHello ? hello : { ok: 0, errmsg: 'not a real server', code: 59 };
  socket.write(opCode === OP_QUERY ? opReply(requestId, reply) : opMsg(requestId, reply));
}

/** Serves the handshake on a free loopback port; `close` stops it and its connections. */
export async function startHandshakeServer(
  hello: Record<string, unknown>,
): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const length = pending.readInt32LE(0);
        answer(socket, pending.subarray(0, length), hello);
        pending = pending.subarray(length);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `mongodb://127.0.0.1:${port}/fleet?directConnection=true`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
