import type { Logger } from 'pino';

/** The part of `process` the safety net listens on (tests hand in an EventEmitter). */
export interface ProcessEvents {
  on(event: 'uncaughtException', listener: (error: Error, origin: string) => void): unknown;
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
  off(event: 'uncaughtException', listener: (error: Error, origin: string) => void): unknown;
  off(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
}

/**
 * Keeps a serving relay alive through an error nothing caught (a library dereferencing a
 * request it did not check, a promise nobody awaited): the error is logged with where it came
 * from and the relay goes on answering. One bad request must not end every person's session.
 * Installed only once the relay is ready, so failures while starting still end the process
 * with their message. Returns a function that takes the net down again.
 */
export function installSafetyNet(log: Logger, events: ProcessEvents = process): () => void {
  const onException = (error: Error, origin: string) => {
    log.error({ err: error, origin }, 'uncaught error; the relay keeps serving');
  };
  const onRejection = (reason: unknown) => {
    log.error(
      { err: reason, origin: 'unhandledRejection' },
      'unhandled promise rejection; the relay keeps serving',
    );
  };
  events.on('uncaughtException', onException);
  events.on('unhandledRejection', onRejection);
  return () => {
    events.off('uncaughtException', onException);
    events.off('unhandledRejection', onRejection);
  };
}
