/**
 * Promise.withResolvers for Node 20 (it arrived in Node 22): postgraphile 5 calls it. Imported
 * for its effect before postgraphile is loaded; does nothing where the runtime has it.
 */
interface Resolvers<T> {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
}

const withResolvers = function <T>(this: PromiseConstructor): Resolvers<T> {
  let resolve!: Resolvers<T>["resolve"];
  let reject!: Resolvers<T>["reject"];
  const promise = new this<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

if (typeof (Promise as { withResolvers?: unknown }).withResolvers !== "function") {
  Object.defineProperty(Promise, "withResolvers", { value: withResolvers, writable: true, configurable: true });
}
