/** The error `run` throws, for asserting on its code and data; fails the test when nothing is thrown. */
export function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}
