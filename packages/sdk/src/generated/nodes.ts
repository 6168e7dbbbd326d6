// Generated from the nodes service's OpenAPI document by test/generated-types.test.ts; do not edit.
export interface paths {
    "/chains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The chains this installation runs nodes of, and the software of each */
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
        /** Create a node; it answers at once in state provisioning and comes up in the background */
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
        get?: never;
        put?: never;
        /** Replace the node's Basic credentials; the old ones stop working */
        post: {
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
                /** @description the node with its new credentials (shown once) */
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
                /** @description a jwt node, or a node being deleted (Conflict) */
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
            /** @enum {string} */
            state: "provisioning" | "running" | "failed" | "deleting";
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
            createdAt: string;
            updatedAt: string;
            /** @description Basic user name; only in the answer that created or rotated it */
            nodeUser?: string;
            /** @description Basic password; shown once, only in the answer that created or rotated it */
            nodePass?: string;
        };
        CreateNodeRequest: {
            /** @enum {string} */
            image: "btc" | "bch" | "ltc" | "btctestnet" | "bchtestnet" | "eth";
            /** @default false */
            large: boolean;
            /** @default false */
            jwt: boolean;
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
