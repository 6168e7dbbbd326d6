// The stream types every layer shares: defined beside the records (data-access imports no other
// layer), named here for the domain and the entry points.
export * from '../data-access/stream-types';
