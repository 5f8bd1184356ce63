import { randomUUID } from "node:crypto";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { connectRedis } from "../../../limiters/rate-limit-redis";
import { createMemoryConnectionPlaces } from "./connection-places";
import { createRedisConnectionPlaces } from "./connection-places-redis";

const log = pino({ level: "silent" });

describe("WebSocket connection places", () => {
  it("in memory: at most `max` per key, each given back once", async () => {
    const places = createMemoryConnectionPlaces();
    const first = await places.take("env_1\nclient_a", 1);
    expect(first).toBeTypeOf("function");
    expect(await places.take("env_1\nclient_a", 1)).toBeUndefined();
    expect(await places.take("env_1\nclient_b", 1)).toBeTypeOf("function");
    first!();
    first!();
    expect(await places.take("env_1\nclient_a", 1)).toBeTypeOf("function");
    expect(await places.take("env_1\nclient_a", 1)).toBeUndefined();
  });

  describe("in Redis", () => {
    const redis = connectRedis("redis://127.0.0.1:6379", "gatehouse-test-connection-places", log);
    const prefix = `gatehouse-test-${randomUUID()}:`;
    const processPlaces = () => createRedisConnectionPlaces({ redis, prefix, fallback: createMemoryConnectionPlaces(), log });
    afterAll(async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    });

    it("counts every process's places together, and a place given back twice counts once", async () => {
      const one = processPlaces();
      const other = processPlaces();
      const first = await one.take("env_1\nclient_a", 2);
      expect(await other.take("env_1\nclient_a", 2)).toBeTypeOf("function");
      expect(await one.take("env_1\nclient_a", 2)).toBeUndefined();
      expect(await other.take("env_1\nclient_a", 2)).toBeUndefined();
      first!();
      first!();
      expect(await other.take("env_1\nclient_a", 2)).toBeTypeOf("function");
      expect(await one.take("env_1\nclient_a", 2)).toBeUndefined();
      await Promise.all([one.close(), other.close()]);
    });

    it("gives back every place of a process that stops", async () => {
      const stopping = processPlaces();
      const staying = processPlaces();
      await stopping.take("env_1\nclient_b", 2);
      await stopping.take("env_1\nclient_b", 2);
      expect(await staying.take("env_1\nclient_b", 2)).toBeUndefined();
      await stopping.close();
      expect(await staying.take("env_1\nclient_b", 2)).toBeTypeOf("function");
      await staying.close();
    });

    it("drops the places of a process whose deadline passed, as one that died leaves them", async () => {
      const alive = `${prefix}ws:env_1\nclient_c:alive`;
      const held = `${prefix}ws:env_1\nclient_c:held`;
      await redis.multi().zadd(alive, 1, "dead-process").hset(held, "dead-process", 2).exec();
      const places = processPlaces();
      expect(await places.take("env_1\nclient_c", 2)).toBeTypeOf("function");
      expect(await redis.hget(held, "dead-process")).toBeNull();
      expect(Number(await redis.pttl(held))).toBeGreaterThan(0);
      await places.close();
    });
  });
});
