// The streams API's use cases (create, list, pause, resume, rotate the secret, test, deliveries,
// dead letters, replay, delete): issue 32, filled in by the API's branch.
export class StreamsService {}
