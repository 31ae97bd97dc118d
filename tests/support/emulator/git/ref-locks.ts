/** Serialises asynchronous critical sections per key (a ref name), in arrival order. */
export class RefLocks {
  private readonly tails = new Map<string, Promise<unknown>>()

  run<T>(key: string, section: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve()
    const result = previous.then(section, section)
    const tail = result.catch(() => undefined)
    this.tails.set(key, tail)
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key)
    })
    return result
  }
}
