import { createOutbox } from '@cloud/bus';
import type { Migration } from '@cloud/db';
import { createStreams } from './20261128120000_create_streams';

/** The schema this service owns. */
export const STREAMS_SCHEMA = 'streams';

/** Every migration of the streams schema; add new ones at the end. */
export const streamsMigrations: Migration[] = [createOutbox, createStreams];
