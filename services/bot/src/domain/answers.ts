import { EventEmitter } from 'node:events';
import type { Logger } from '@gpt/kit';
import type { Kysely } from 'kysely';
import { conversationsRepository } from '../data/conversations.repository';
import type { BotDatabase } from '../data/schema';

/** What a reader of a running answer hears: its whole text so far, then its end. */
export interface AnswerListener {
  text(text: string): void;
  end(): void;
}

/** One answer being generated in this process, as the engine drives it. */
export interface RunningAnswer {
  /** The text so far: readers here hear it at once; the database gets it every `saveEveryMs`. */
  progress(text: string): void;
  /** The answer ended: its last text is saved by the engine; readers here are told. */
  end(): void;
}

/**
 * The answers running in this process, each a job that outlives the connection that started it
 * (docs/architecture.md, The assistant): its text so far is in the database for every replica (saved
 * every `saveEveryMs`) and heard at once by readers in this process; «Остановить» aborts it here, or
 * marks it in the database for the replica that runs it, which sees the mark at its next save.
 */
export function answerJobs(deps: { db: Kysely<BotDatabase>; logger: Logger }, saveEveryMs: number) {
  const jobs = new Map<string, { text: string; stop: () => void; events: EventEmitter }>();
  const conversations = conversationsRepository(deps.db);

  return {
    /** Starts keeping an answer; `stop` aborts its model call. */
    run(answerId: string, stop: () => void): RunningAnswer {
      const events = new EventEmitter().setMaxListeners(0);
      const job = { text: '', stop, events };
      jobs.set(answerId, job);
      let savedAt = Date.now();
      let saving = false;
      return {
        progress(text) {
          job.text = text;
          events.emit('text', text);
          if (saving || Date.now() - savedAt < saveEveryMs) return;
          saving = true;
          savedAt = Date.now();
          conversations
            .saveProgress(answerId, text)
            .then((stopRequested) => {
              if (stopRequested) stop();
            })
            .catch((err: unknown) => deps.logger.warn({ err, answerId }, 'saving the answer so far failed'))
            .finally(() => (saving = false));
        },
        end() {
          jobs.delete(answerId);
          events.emit('end');
        },
      };
    },
    /** Stops the answer if this process runs it; false when another replica does (or none). */
    stopHere(answerId: string): boolean {
      const job = jobs.get(answerId);
      job?.stop();
      return job !== undefined;
    },
    /** Listens to an answer running here: its text so far at once, then as it grows; null when it does not run here. */
    listen(answerId: string, listener: AnswerListener): (() => void) | null {
      const job = jobs.get(answerId);
      if (!job) return null;
      const onText = (text: string) => listener.text(text);
      const onEnd = () => listener.end();
      job.events.on('text', onText).once('end', onEnd);
      listener.text(job.text);
      return () => {
        job.events.off('text', onText).off('end', onEnd);
      };
    },
    running: () => jobs.size,
  };
}

export type AnswerJobs = ReturnType<typeof answerJobs>;
