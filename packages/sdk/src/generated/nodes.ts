// Generated from the nodes service's OpenAPI document by test/generated-types.test.ts; do not edit.
export interface paths {
    "/chains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The chains this installation runs nodes of, the software of each, and whether its nodes run on a private dev chain (dev) or keep only recent blocks (pruned); public: a token, if sent, must be valid */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description chain options */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ChainOption"][];
                    };
                };
                /** @description an invalid, expired or revoked client access token was sent (Unauthorized) */
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
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/me/nodes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your nodes, oldest first */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description your nodes */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Node"][];
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
        /** Create a node; it answers at once in state provisioning and comes up in the background (syncing while it catches up with its network, then running) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateNodeRequest"];
                };
            };
            responses: {
                /** @description the new node, with its Basic credentials (shown once) unless jwt */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Node"];
                    };
                };
                /** @description the body is not valid (InvalidInput): among others a name that is empty, longer than 64 characters or not printable; also txindex on a chain other than btc, bch or ltc, or on a pruned chain option */
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
                /** @description you have as many nodes as allowed (LimitExceeded) */
                403: {
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
    "/users/me/nodes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One node */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the node */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Node"];
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
                /** @description no such node of yours (NotFound) */
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
        /** Delete a node: it answers with the node deleting; once gone the node is 404 */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the node, deleting */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Node"];
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
                /** @description no such node of yours (NotFound) */
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
        /** Rename a node (`name`; null removes it) or resize it (`large`: large or standard), or both: a running node restarts with a new class on its kept data, a stopped one takes it when started; a name changes nothing else */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["UpdateNodeRequest"];
                };
            };
            responses: {
                /** @description the node with its new name or class, stopping if it was restarted for a new class */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Node"];
                    };
                };
                /** @description neither large nor name, or a name that is empty, longer than 64 characters or not printable (InvalidInput) */
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
                /** @description no such node of yours (NotFound) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the node is deleting, or is a validator's and large was given (Conflict); a validator's node can be renamed */
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
        trace?: never;
    };
    "/users/me/nodes/{id}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stop a node, keeping its data, credentials and address: stopping, then stopped */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["NoInput"];
                };
            };
            responses: {
                /** @description the node, stopping */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Node"];
                    };
                };
                /** @description invalid input (InvalidInput) */
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
                /** @description no such node of yours (NotFound) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the operation does not apply to the node's state, which the message names, or the node is a validator's (Conflict) */
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
    "/users/me/nodes/{id}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a stopped (or failed) node on its kept data: provisioning, then running */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["NoInput"];
                };
            };
            responses: {
                /** @description the node, provisioning */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Node"];
                    };
                };
                /** @description invalid input (InvalidInput) */
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
                /** @description no such node of yours (NotFound) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the operation does not apply to the node's state, which the message names, or the node is a validator's (Conflict) */
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
    "/users/me/nodes/{id}/restart": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Restart a node: stopping, then provisioning, then running, on its kept data */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["NoInput"];
                };
            };
            responses: {
                /** @description the node, stopping */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Node"];
                    };
                };
                /** @description invalid input (InvalidInput) */
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
                /** @description no such node of yours (NotFound) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the operation does not apply to the node's state, which the message names, or the node is a validator's (Conflict) */
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
    "/users/me/nodes/{id}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The last lines of the node software's log, oldest first */
        get: {
            parameters: {
                query?: {
                    lines?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description log lines */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string[];
                    };
                };
                /** @description invalid input (InvalidInput) */
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
                /** @description no such node of yours (NotFound) */
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
    "/users/me/nodes/{id}/access": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The node's access rules (also in the node record) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the rules; empty lists and a null rate when none are set */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["NodeAccess"];
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
                /** @description no such node of yours (NotFound) */
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
        /** Set the node's access rules, whole (a field left out is emptied); every proxy applies them within a second */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["NodeAccessRequest"];
                };
            };
            responses: {
                /** @description the node with its rules, normalised */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Node"];
                    };
                };
                /** @description invalid input, naming the field (InvalidInput) */
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
                /** @description no such node of yours (NotFound) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the node is being deleted (Conflict) */
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
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/me/nodes/{id}/credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The node's credentials, Basic and URL tokens, oldest first (never a password or token, nor their hashes) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description its credentials */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["NodeCredential"][];
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
                /** @description no such node of yours (NotFound) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description a jwt node, which takes its owner's client access tokens, not Basic credentials or URL tokens; or a node being deleted (Conflict) */
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
        put?: never;
        /** Add a named credential: Basic (a user name and password; the default) or a URL token (`nt_…`, used as the first path segment of the node's addresses). The password or token is shown only in this answer, with the token's URLs */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateCredentialRequest"];
                };
            };
            responses: {
                /** @description the new credential, with its password, or its token and URLs */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["NewNodeCredential"];
                    };
                };
                /** @description invalid input, naming the field (InvalidInput) */
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
                /** @description the node has as many credentials as allowed (LimitExceeded) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no such node of yours (NotFound) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description a credential of that name exists, or a jwt node, or a node being deleted (Conflict) */
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
    "/users/me/nodes/{id}/credentials/{credentialId}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new secret for a credential: the same id, name and kind (and user name for Basic), a new password or token shown only in this answer; the old one is refused within a second */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    credentialId: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["NoInput"];
                };
            };
            responses: {
                /** @description the credential with its new password, or its new token and URLs */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["NewNodeCredential"];
                    };
                };
                /** @description invalid input, naming the field (InvalidInput) */
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
                /** @description no such node of yours, or no such credential of it (NotFound) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description a jwt node, which takes its owner's client access tokens, not Basic credentials or URL tokens; or a node being deleted (Conflict) */
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
    "/users/me/nodes/{id}/credentials/{credentialId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke one credential: it stops working within a second, the others go on */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    credentialId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the credentials left */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["NodeCredential"][];
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
                /** @description no such node of yours, or no such credential of it (NotFound) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the last credential of the node, of either kind (create another first), a jwt node, or a node being deleted (Conflict) */
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
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/me/nodes/{id}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Calls to the node through the node-proxy, by outcome and method, those answered from the proxy's cache, and bytes, in minute (kept a day) or hour (kept 90 days) buckets */
        get: {
            parameters: {
                query?: {
                    /** @description start of the range (taken back to its bucket); default: an hour (minute) or a day (hour) before `to` */
                    from?: string;
                    /** @description end of the range, exclusive (taken on to the next bucket); default: now */
                    to?: string;
                    /** @description bucket size; default minute. At most 1440 buckets per query */
                    granularity?: "minute" | "hour";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the node's usage */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["NodeUsage"];
                    };
                };
                /** @description invalid input, naming the field: a bad date, from not before to, an unknown granularity, or more than 1440 buckets (InvalidInput) */
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
                /** @description no such node of yours (NotFound) */
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
    "/users/me/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Usage across all your nodes and pools, with totals per node or pool */
        get: {
            parameters: {
                query?: {
                    /** @description start of the range (taken back to its bucket); default: an hour (minute) or a day (hour) before `to` */
                    from?: string;
                    /** @description end of the range, exclusive (taken on to the next bucket); default: now */
                    to?: string;
                    /** @description bucket size; default minute. At most 1440 buckets per query */
                    granularity?: "minute" | "hour";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description your usage */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UserUsage"];
                    };
                };
                /** @description invalid input, naming the field: a bad date, from not before to, an unknown granularity, or more than 1440 buckets (InvalidInput) */
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
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ChainOption: {
            /**
             * @description what to pass as `image` to create such a node
             * @enum {string}
             */
            image: "btc" | "bch" | "ltc" | "btctestnet" | "bchtestnet" | "eth";
            /** @example btc */
            chain: string;
            /** @example mainnet */
            network: string;
            /**
             * @description <software name>-<version> of what runs the node
             * @example litecoin-core-0.21.2.1
             */
            software: string;
            /** @description true: its nodes run on a private dev chain (regtest, anvil, the dev chain), not on `network` */
            dev: boolean;
            /**
             * @description the network in words, as clients show it: `ltc mainnet`, or on a dev chain `ltc dev chain (regtest)` (never `network`)
             * @example ltc dev chain (regtest)
             */
            networkLabel: string;
            /** @description true: its nodes keep only recent blocks, so they cannot have a transaction index */
            pruned: boolean;
        };
        Error: {
            /** @example InvalidInput */
            code: string;
            /** @example body.email: must be an e-mail address */
            message: string;
        };
        Node: {
            /** @example node-0f8e2c4a-5b1d-4e7f-9a3c-2d6b8e1f4a70 */
            id: string;
            /**
             * @description its name, given at creation or with PATCH; null: none given (validators' nodes have none)
             * @example payments-eth
             */
            name: string | null;
            user: string;
            /**
             * @description avalanche and avalanchefuji nodes are validators the staking service created
             * @enum {string}
             */
            image: "btc" | "bch" | "ltc" | "btctestnet" | "bchtestnet" | "eth" | "avalanche" | "avalanchefuji";
            chain: string;
            network: string;
            software: string;
            large: boolean;
            /** @description true: the node takes a client access token (Bearer) instead of Basic credentials */
            jwt: boolean;
            /** @description true: the node runs on a private dev chain (regtest, anvil, the dev chain), not on `network` */
            dev: boolean;
            /**
             * @description the network in words, as clients show it: `ltc mainnet`, or on a dev chain `ltc dev chain (regtest)` (never `network`)
             * @example ltc dev chain (regtest)
             */
            networkLabel: string;
            /** @description true: the node keeps a transaction index */
            txindex: boolean;
            /**
             * @description syncing: it answers calls but is still catching up with its network; stopping, stopped: its owner stopped it, its data is kept
             * @enum {string}
             */
            state: "provisioning" | "syncing" | "running" | "failed" | "stopping" | "stopped" | "deleting";
            sync: components["schemas"]["NodeSync"];
            /** @description why the node failed; null otherwise */
            stateReason: string | null;
            /** @description host name at the node-proxy: <id>.<NODE_DOMAIN> */
            address: string;
            /** @description ports of `address` for each interface of the node */
            ports: {
                jsonRpc: number;
                rest?: number;
                webSocket?: number;
            };
            endpoints: components["schemas"]["NodeEndpoints"];
            access: components["schemas"]["NodeAccess"];
            createdAt: string;
            updatedAt: string;
            /** @description Basic user name of its first credential (`default`); only in the answer that created the node */
            nodeUser?: string;
            /** @description Basic password of its first credential; shown once, only in the answer that created the node */
            nodePass?: string;
        };
        /** @description what the node last reported of its sync with its network; null until it first answered */
        NodeSync: {
            /** @description the node's chain height; null when it has no single height (avalanche) */
            height: number | null;
            /** @description the best height it knows of: its best header or the network tip; null when it does not say */
            bestKnownHeight: number | null;
            /** @description from 0 to 1 */
            progress: number;
            /** @description connected peers; null when the software does not say */
            peers: number | null;
            /** @description still in initial block download (or bootstrapping) */
            syncing: boolean;
            /** @description when the node was asked; refreshed when its answer changes, and at least every 30 s */
            checkedAt: string;
        } | null;
        /** @description where to call the node, as pasted into any client: with a Basic credential (routed by its user name), or with a URL token inserted as the first path segment (https://127.0.0.1:8545/<token>); a jwt node's are at its own name */
        NodeEndpoints: {
            /**
             * @description JSON-RPC (POST)
             * @example https://127.0.0.1:9332/
             */
            jsonRpc: string;
            /**
             * @description REST (GET …/rest/…), Bitcoin-family nodes
             * @example https://127.0.0.1:9332/rest/
             */
            rest?: string;
            /**
             * @description JSON-RPC over WebSocket, eth nodes
             * @example wss://127.0.0.1:8545/
             */
            webSocket?: string;
            /**
             * @description management API (/status, /logs), validators
             * @example https://127.0.0.1:8080/
             */
            management?: string;
            /** @description the same in plain HTTP, answered to loopback callers only (litecoin-cli, bitcoin-cli); absent where not served */
            plain?: {
                /**
                 * @description JSON-RPC (POST)
                 * @example https://127.0.0.1:9332/
                 */
                jsonRpc: string;
                /**
                 * @description REST (GET …/rest/…), Bitcoin-family nodes
                 * @example https://127.0.0.1:9332/rest/
                 */
                rest?: string;
                /**
                 * @description JSON-RPC over WebSocket, eth nodes
                 * @example wss://127.0.0.1:8545/
                 */
                webSocket?: string;
                /**
                 * @description management API (/status, /logs), validators
                 * @example https://127.0.0.1:8080/
                 */
                management?: string;
            };
        };
        NodeAccess: {
            /**
             * @description CIDRs (IPv4, IPv6) or single addresses the node takes calls from; empty: anywhere
             * @example [
             *       "203.0.113.0/24",
             *       "2001:db8::/32"
             *     ]
             */
            ipAllowlist: string[];
            /**
             * @description origins whose pages may call the node (CORS); empty: no CORS, as before
             * @example [
             *       "https://app.example.com"
             *     ]
             */
            originAllowlist: string[];
            /**
             * @description methods refused (-32601) on top of the platform policy, lower case
             * @example [
             *       "eth_getlogs"
             *     ]
             */
            refusedMethods: string[];
            /** @description calls per second below the platform's rate; null: the platform's */
            ratePerSecond: number | null;
            /** @description largest answer passed on from the node, in bytes, below the platform's; null: the platform's. A larger answer is refused with a JSON-RPC error -32005 (HTTP 200), or 502 AnswerTooLarge on a REST path */
            maxAnswerBytes: number | null;
        };
        CreateNodeRequest: {
            /** @enum {string} */
            image: "btc" | "bch" | "ltc" | "btctestnet" | "bchtestnet" | "eth";
            /**
             * @description the node's name, your label for it: 1 to 64 printable characters, trimmed of spaces at either end; need not be unique
             * @example payments-eth
             */
            name?: string;
            /** @default false */
            large: boolean;
            /** @default false */
            jwt: boolean;
            /**
             * @description keep a transaction index, so getrawtransaction finds any transaction (Bitcoin family only; not on a pruned chain option). Default false
             * @default false
             */
            txindex: boolean;
        };
        NoInput: Record<string, never>;
        UpdateNodeRequest: {
            /** @description the resource class: true for large, false for standard */
            large?: boolean;
            /**
             * @description a new name (the rule of `name` at creation); null removes it
             * @example payments-eth
             */
            name?: string | null;
        };
        NodeAccessRequest: {
            /** @default [] */
            ipAllowlist: string[];
            /** @default [] */
            originAllowlist: string[];
            /** @default [] */
            refusedMethods: string[];
            /** @default null */
            ratePerSecond: number | null;
            /** @default null */
            maxAnswerBytes: number | null;
        };
        /** @description a credential as listed: never its password or token, nor a hash or part of them */
        NodeCredential: components["schemas"]["BasicNodeCredential"] | components["schemas"]["TokenNodeCredential"];
        BasicNodeCredential: {
            /** @example cred-4e1b7c2a-9d3f-4a8e-b5c6-7f0a1d2e3b4c */
            id: string;
            name: string;
            createdAt: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "basic";
            /** @description the Basic user name */
            nodeUser: string;
        };
        TokenNodeCredential: {
            /** @example cred-4e1b7c2a-9d3f-4a8e-b5c6-7f0a1d2e3b4c */
            id: string;
            name: string;
            createdAt: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "token";
        };
        /** @description a new or rotated credential with its secret, shown only in this answer */
        NewNodeCredential: components["schemas"]["NewBasicNodeCredential"] | components["schemas"]["NewTokenNodeCredential"];
        NewBasicNodeCredential: {
            /** @example cred-4e1b7c2a-9d3f-4a8e-b5c6-7f0a1d2e3b4c */
            id: string;
            name: string;
            createdAt: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "basic";
            /** @description the Basic user name */
            nodeUser: string;
            /** @description the Basic password: shown only in this answer */
            nodePass: string;
        };
        NewTokenNodeCredential: {
            /** @example cred-4e1b7c2a-9d3f-4a8e-b5c6-7f0a1d2e3b4c */
            id: string;
            name: string;
            createdAt: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "token";
            /**
             * @description the URL token (nt_ and 43 characters): shown only in this answer
             * @example nt_q2V…
             */
            token: string;
            urls: components["schemas"]["NodeTokenUrls"];
        };
        /** @description the node's endpoints with the token in them, to paste as they are */
        NodeTokenUrls: {
            /** @example https://127.0.0.1:8545/nt_… */
            jsonRpc: string;
            /** @description Bitcoin-family nodes: REST paths go after it (…/<token>/rest/chaininfo.json) */
            rest?: string;
            /** @example wss://127.0.0.1:8545/nt_… */
            webSocket?: string;
            /** @description the same in plain HTTP, answered to loopback callers only; absent where not served */
            plain?: {
                /** @example https://127.0.0.1:8545/nt_… */
                jsonRpc: string;
                /** @description Bitcoin-family nodes: REST paths go after it (…/<token>/rest/chaininfo.json) */
                rest?: string;
                /** @example wss://127.0.0.1:8545/nt_… */
                webSocket?: string;
            };
        };
        CreateCredentialRequest: {
            /**
             * @description your name for it, unique on the node
             * @example ci
             */
            name: string;
            /**
             * @description basic: a user name and password (HTTP Basic); token: a URL token, the first path segment of the node's addresses (https://127.0.0.1:8545/<token>)
             * @default basic
             * @enum {string}
             */
            kind: "basic" | "token";
        };
        NodeUsage: {
            nodeId: string;
            /** @enum {string} */
            granularity: "minute" | "hour";
            from: string;
            to: string;
            /** @description every bucket of the range, oldest first, zeros included */
            series: {
                /** @description start of the bucket */
                time: string;
                calls: components["schemas"]["CallsByOutcome"];
                total: number;
                bytesIn: number;
                bytesOut: number;
                /** @description calls the node-proxy answered from its cache or its tracked head, without reaching a node (also counted in calls.ok and total); 0 before the proxy had a cache */
                cachedCalls: number;
            }[];
            /** @description calls per method over the range, most called first. A method the platform's lists name (allowed or refused) is counted under its name, refused calls included; a name a refused prefix covers under the prefix (`personal_*`); any other name, and a request the proxy could not read, under `other`. `rest`, `management` and `unread` (refused before the body was read: wrong or missing credentials, over the rate, an address or Origin the access rules refuse; its method is not known) are buckets of their own */
            methods: {
                method: string;
                calls: components["schemas"]["CallsByOutcome"];
                total: number;
            }[];
            totals: {
                calls: components["schemas"]["CallsByOutcome"];
                total: number;
                bytesIn: number;
                bytesOut: number;
                /** @description calls the node-proxy answered from its cache or its tracked head, without reaching a node (also counted in calls.ok and total); 0 before the proxy had a cache */
                cachedCalls: number;
            };
            /** @description calls per named credential (Basic or URL token) over the range, most used first; calls with the owner's client access token (jwt nodes) and calls refused before credentials were checked are in no credential's count */
            credentials: {
                credentialId: string;
                /** @description null for a credential removed since */
                name: string | null;
                /**
                 * @description basic or token (a URL token); null for a credential removed since
                 * @enum {string|null}
                 */
                kind: "basic" | "token" | null;
                calls: components["schemas"]["CallsByOutcome"];
                total: number;
            }[];
            /** @description a pool's calls over the range by the member node that served them, most first (a member removed since included; cached calls and calls no member answered are in none); empty for a node, whose calls through a pool are counted under the pool */
            members: {
                nodeId: string;
                calls: number;
            }[];
        };
        /** @description ok: answered by the node; node_error: the node answered a JSON-RPC error; refused: refused by the proxy (method policy, the node's access rules, unreadable, too large); rate_limited: over the node's rate; unauthorized: wrong or missing credentials */
        CallsByOutcome: {
            ok: number;
            node_error: number;
            refused: number;
            rate_limited: number;
            unauthorized: number;
        };
        UserUsage: {
            /** @enum {string} */
            granularity: "minute" | "hour";
            from: string;
            to: string;
            /** @description every bucket of the range, oldest first, zeros included */
            series: {
                /** @description start of the bucket */
                time: string;
                calls: components["schemas"]["CallsByOutcome"];
                total: number;
                bytesIn: number;
                bytesOut: number;
                /** @description calls the node-proxy answered from its cache or its tracked head, without reaching a node (also counted in calls.ok and total); 0 before the proxy had a cache */
                cachedCalls: number;
            }[];
            /** @description calls per method over the range, most called first. A method the platform's lists name (allowed or refused) is counted under its name, refused calls included; a name a refused prefix covers under the prefix (`personal_*`); any other name, and a request the proxy could not read, under `other`. `rest`, `management` and `unread` (refused before the body was read: wrong or missing credentials, over the rate, an address or Origin the access rules refuse; its method is not known) are buckets of their own */
            methods: {
                method: string;
                calls: components["schemas"]["CallsByOutcome"];
                total: number;
            }[];
            totals: {
                calls: components["schemas"]["CallsByOutcome"];
                total: number;
                bytesIn: number;
                bytesOut: number;
                /** @description calls the node-proxy answered from its cache or its tracked head, without reaching a node (also counted in calls.ok and total); 0 before the proxy had a cache */
                cachedCalls: number;
            };
            /** @description totals per node or pool (its id `pool-…`) that had calls in the range */
            nodes: {
                nodeId: string;
                calls: components["schemas"]["CallsByOutcome"];
                total: number;
                bytesIn: number;
                bytesOut: number;
                /** @description calls the node-proxy answered from its cache or its tracked head, without reaching a node (also counted in calls.ok and total); 0 before the proxy had a cache */
                cachedCalls: number;
            }[];
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
