import { NotFoundError } from '@cloud/http';

// Another user's node is as absent as a node that never was: its existence is not disclosed.
export const notFound = (id: string) => new NotFoundError(`no node ${id}`);
