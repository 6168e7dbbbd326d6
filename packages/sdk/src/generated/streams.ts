// Generated from the streams service's OpenAPI document by test/generated-types.test.ts; do not edit.
export interface paths {
    "/users/me/streams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your streams, oldest first, each with its cursor, queue and last delivery */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description your streams */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Stream"][];
                    };
                };
                /** @description missing, invalid, expired or revoked client access token (Unauthorized) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Stream a node's (or pool's) blocks or address activity to your webhook: signed, in order, retried for a day; the signing secret is in this answer only */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateStreamRequest"];
                };
            };
            responses: {
                /** @description the new stream, with its signing secret (shown once) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Stream"];
                    };
                };
                /** @description the body is not valid, naming the field (InvalidInput): a node or pool that is not yours, is being deleted or is not Ethereum- or Bitcoin-family; a refused URL (and why); addresses missing for transactions, given for blocks, or malformed; fromHeight above the head or more than STREAMS_MAX_BACKFILL_BLOCKS below it */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description missing, invalid, expired or revoked client access token (Unauthorized) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description you have as many streams as allowed (LimitExceeded) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description fromHeight given while the node's head cannot be read (it is not running): backfill once it runs (Conflict) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the nodes are still being loaded: try again in a few seconds (ServiceUnavailable) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/me/streams/{streamId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One stream: its state, cursor, queue, failures and last delivery */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    streamId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the stream */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Stream"];
                    };
                };
                /** @description an id that is not stream-<uuid> (InvalidInput) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description missing, invalid, expired or revoked client access token (Unauthorized) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no such stream of yours (NotFound) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a stream: nothing more is scanned or delivered */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    streamId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the stream is deleted */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeletedStream"];
                    };
                };
                /** @description an id that is not stream-<uuid> (InvalidInput) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description missing, invalid, expired or revoked client access token (Unauthorized) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no such stream of yours (NotFound) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Rename a stream or point it at another URL (checked as at creation); pending events go to the new URL */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    streamId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["UpdateStreamRequest"];
                };
            };
            responses: {
                /** @description the stream, changed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Stream"];
                    };
                };
                /** @description the body is not valid, naming the field, or the URL is refused and why (InvalidInput) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description missing, invalid, expired or revoked client access token (Unauthorized) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no such stream of yours (NotFound) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/users/me/streams/{streamId}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pause a stream: neither scanned nor delivered until resumed, which goes on where it stopped */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    streamId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the stream, paused */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Stream"];
                    };
                };
                /** @description an id that is not stream-<uuid> (InvalidInput) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description missing, invalid, expired or revoked client access token (Unauthorized) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no such stream of yours (NotFound) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the stream is already paused (Conflict) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/me/streams/{streamId}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resume a paused stream where it stopped; a batch waiting for its retry is tried at once */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    streamId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the stream, active */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Stream"];
                    };
                };
                /** @description an id that is not stream-<uuid> (InvalidInput) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description missing, invalid, expired or revoked client access token (Unauthorized) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no such stream of yours (NotFound) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the stream is not paused (Conflict) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/me/streams/{streamId}/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate the signing secret: deliveries from now on are signed with the new one, shown in this answer only */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    streamId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the stream, with its new secret (shown once) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Stream"];
                    };
                };
                /** @description an id that is not stream-<uuid> (InvalidInput) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description missing, invalid, expired or revoked client access token (Unauthorized) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no such stream of yours (NotFound) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/me/streams/{streamId}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a signed test event to the URL now, outside the stream's order, and answer how it went (logged with outcome "test") */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    streamId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the attempt */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeliveryAttempt"];
                    };
                };
                /** @description an id that is not stream-<uuid> (InvalidInput) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description missing, invalid, expired or revoked client access token (Unauthorized) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no such stream of yours (NotFound) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/me/streams/{streamId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The delivery log: each attempt, newest first, with its status code, latency and error (the last 1000 are kept) */
        get: {
            parameters: {
                query?: {
                    /** @description at most this many (default 100) */
                    limit?: number;
                };
                header?: never;
                path: {
                    streamId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the attempts */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeliveryAttempt"][];
                    };
                };
                /** @description an id that is not stream-<uuid> (InvalidInput) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description missing, invalid, expired or revoked client access token (Unauthorized) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no such stream of yours (NotFound) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/me/streams/{streamId}/dead-letters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Events parked after failing for the retry period (24 h by default), oldest first */
        get: {
            parameters: {
                query?: {
                    /** @description at most this many (default 100) */
                    limit?: number;
                };
                header?: never;
                path: {
                    streamId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the dead letters, as they would be delivered */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StreamEvent"][];
                    };
                };
                /** @description an id that is not stream-<uuid> (InvalidInput) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description missing, invalid, expired or revoked client access token (Unauthorized) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no such stream of yours (NotFound) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/me/streams/{streamId}/dead-letters/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deliver the dead letters again, after what is pending, with the same event ids (new seqs) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    streamId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description how many were put back */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Replayed"];
                    };
                };
                /** @description an id that is not stream-<uuid> (InvalidInput) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description missing, invalid, expired or revoked client access token (Unauthorized) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no such stream of yours (NotFound) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description a subscription to a node's blocks or address activity, delivered to a webhook */
        Stream: {
            /** @example stream-0f8e2c4a-5b1d-4e7f-9a3c-2d6b8e1f4a70 */
            id: string;
            name: string;
            /** @description the node or pool followed */
            nodeId: string;
            /** @enum {string} */
            kind: "blocks" | "transactions";
            url: string;
            /** @description watched addresses (eth: lower-case) */
            addresses: string[];
            topics: string[];
            /** @enum {string} */
            state: "active" | "paused";
            /** @description the first block asked for; null: the head when it started */
            fromHeight: number | null;
            /** @description the last block scanned (its events are queued or delivered); null before the first scan */
            cursor: {
                height: number;
                hash: string;
            } | null;
            /** @description events found and not yet delivered */
            pendingEvents: number;
            /** @description events parked after failing for the retry period; replay them with POST …/dead-letters/replay */
            deadLetters: number;
            /** @description the pending batch keeps failing: since when, how many attempts, the next one; null while deliveries succeed */
            failing: {
                /** @description ISO 8601 UTC */
                since: string;
                attempts: number;
                /** @description ISO 8601 UTC */
                nextAttemptAt: string | null;
                lastError: string | null;
            } | null;
            lastDelivery: components["schemas"]["DeliveryAttempt"];
            /** @description ISO 8601 UTC */
            createdAt: string;
            /** @description the signing secret (whsec_…): only in the answers that create or rotate it; deliveries carry x-cloud-signature made with it */
            secret?: string;
        };
        DeliveryAttempt: {
            /** @description dlv-<uuid>, also sent as x-cloud-delivery */
            deliveryId: string;
            /** @description 1 for the events' first try, then 2, 3, … */
            attempt: number;
            /** @description the first event of the batch; null for a test delivery */
            firstSeq: number | null;
            lastSeq: number | null;
            events: number;
            /**
             * @description delivered: a 2xx answer; failed: any other answer, a timeout, a refused target or a network error (retried); parked: failed for the retry period, now dead letters; test: a test delivery
             * @enum {string}
             */
            outcome: "delivered" | "failed" | "parked" | "test";
            /** @description the receiver's HTTP status; null when it did not answer */
            statusCode: number | null;
            latencyMs: number;
            /** @description why it failed (with the start of the receiver's answer); null when delivered */
            error: string | null;
            /** @description ISO 8601 UTC */
            at: string;
        } | null;
        Error: {
            /** @example InvalidInput */
            code: string;
            /** @example body.email: must be an e-mail address */
            message: string;
        };
        CreateStreamRequest: {
            /**
             * @description the node or pool of yours to follow (an Ethereum- or Bitcoin-family one)
             * @example node-0f8e2c4a-5b1d-4e7f-9a3c-2d6b8e1f4a70
             */
            nodeId: string;
            /**
             * @description your label for the stream: 1 to 64 printable characters, trimmed; default "<kind> of <nodeId>"
             * @example payments-blocks
             */
            name?: string;
            /**
             * @description blocks: every block header, and a reorg event when blocks are replaced; transactions: transactions touching `addresses` (and reorg events). Default blocks
             * @default blocks
             * @enum {string}
             */
            kind: "blocks" | "transactions";
            /**
             * @description where deliveries are POSTed: https, or http to an address the operator allows (STREAMS_ALLOW_TARGETS, e.g. loopback); URLs resolving to loopback, private, link-local or metadata addresses are refused unless allowed; redirects are not followed
             * @example https://hooks.example.com/chain-events
             */
            url: string;
            /** @description transactions streams (required, at least one): eth 0x addresses (from, to, or the contract of a log); Bitcoin family: addresses paid by an output or spent by an input */
            addresses?: string[];
            /** @description eth transactions streams: a watched contract's log matches only with one of these as topic 0 (0x + 64 hex); none: any */
            topics?: string[];
            /** @description backfill from this block (at most STREAMS_MAX_BACKFILL_BLOCKS below the head); none: from the node's head when the stream starts */
            fromHeight?: number | null;
        };
        UpdateStreamRequest: {
            /**
             * @description your label for the stream: 1 to 64 printable characters, trimmed; default "<kind> of <nodeId>"
             * @example payments-blocks
             */
            name?: string;
            /**
             * @description where deliveries are POSTed: https, or http to an address the operator allows (STREAMS_ALLOW_TARGETS, e.g. loopback); URLs resolving to loopback, private, link-local or metadata addresses are refused unless allowed; redirects are not followed
             * @example https://hooks.example.com/chain-events
             */
            url?: string;
        };
        DeletedStream: {
            id: string;
            /** @enum {boolean} */
            deleted: true;
        };
        /** @description an event as delivered (block, reorg, transaction or test): see the service README for each type */
        StreamEvent: {
            /** @description evt-<uuid>, kept on replay */
            id: string;
            seq: number;
            type: string;
        } & {
            [key: string]: unknown;
        };
        Replayed: {
            /** @description dead letters put back at the end of the stream */
            replayed: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
