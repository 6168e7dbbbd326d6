// Generated from the staking service's OpenAPI document by test/generated-types.test.ts; do not edit.
export interface paths {
    "/staking/{chain}/chains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The networks of a staking chain that validators can be made on */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description the staking chain */
                    chain: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the networks */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StakingNetwork"][];
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
                /** @description no such staking chain or network (NotFound) */
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
    "/staking/{chain}/{network}/limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The network's staking limits: minimum stake, staking period, maximum weight, with where each comes from */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description the staking chain */
                    chain: string;
                    /** @description its network: mainnet or fuji */
                    network: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the limits */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StakingLimits"];
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
                /** @description no such staking chain or network (NotFound) */
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
    "/staking/{chain}/{network}/validators": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your validators on the network, oldest first, each with its registration status */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description the staking chain */
                    chain: string;
                    /** @description its network: mainnet or fuji */
                    network: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description your validators */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Validator"][];
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
                /** @description no such staking chain or network (NotFound) */
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
        /** Create a validator node; its chainNodeId is known at once, and its node comes up in the background */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description the staking chain */
                    chain: string;
                    /** @description its network: mainnet or fuji */
                    network: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["CreateValidatorRequest"];
                };
            };
            responses: {
                /** @description the new validator, with its node's Basic password (shown once) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Validator"];
                    };
                };
                /** @description a body other than {} (InvalidInput) */
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
                /** @description you have as many validators as allowed (LimitExceeded) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no such staking chain or network (NotFound) */
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
    "/staking/{chain}/{network}/validators/{nodeId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One validator, with its node's state and its registration read from the P-chain through the node */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description the staking chain */
                    chain: string;
                    /** @description its network: mainnet or fuji */
                    network: string;
                    /** @description the nodeId the creation answered */
                    nodeId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the validator */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Validator"];
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
                /** @description no such staking network, or no such validator of yours on it (NotFound) */
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
        /** Delete a validator and its node, unless its stake is locked on the P-chain */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description the staking chain */
                    chain: string;
                    /** @description its network: mainnet or fuji */
                    network: string;
                    /** @description the nodeId the creation answered */
                    nodeId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the deleted validator */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Validator"];
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
                /** @description no such staking network, or no such validator of yours on it (NotFound) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description registered (pending or validating) until its end time, or the P-chain cannot be read through a node that has not failed (Conflict) */
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
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        StakingNetwork: {
            chain: string;
            network: string;
        };
        Error: {
            /** @example InvalidInput */
            code: string;
            /** @example body.email: must be an e-mail address */
            message: string;
        };
        StakingLimits: {
            chain: string;
            network: string;
            /** @enum {string} */
            token: "AVAX";
            minimumStake: {
                avax: number;
                text: string;
                /** @description where the value comes from */
                source: string;
            };
            minimumStakeDuration: {
                seconds: number;
                text: string;
                /** @description where the value comes from */
                source: string;
            };
            maximumStakeDuration: {
                seconds: number;
                text: string;
                /** @description where the value comes from */
                source: string;
            };
            maximumWeight: {
                avax: number;
                ownStakeFactor: number;
                /** @enum {boolean} */
                includesDelegations: true;
                text: string;
                /** @description where the value comes from */
                source: string;
            };
        };
        Validator: {
            /** @example node-0f8e2c4a-5b1d-4e7f-9a3c-2d6b8e1f4a70 */
            nodeId: string;
            /**
             * @description the NodeID to register on the P-chain, from its staking certificate
             * @example NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg
             */
            chainNodeId: string;
            chain: string;
            network: string;
            /** @description true: its node runs on a private dev chain (the dev chain's simulated P-chain), not on `network`; null: not known yet, until the nodes service announces the node (a second or so after creation) */
            dev: boolean | null;
            /**
             * @description the network in words, as clients show it: `avalanche fuji`, or on a dev chain `avalanche dev chain (simulated P-chain)` (never `network`)
             * @example avalanche fuji
             */
            networkLabel: string;
            /** @description the node image it runs: avalanche (mainnet) or avalanchefuji */
            image: string;
            /**
             * @description the node's state; syncing: it answers but is still bootstrapping
             * @enum {string}
             */
            state: "provisioning" | "syncing" | "running" | "failed" | "deleting" | "deleted";
            /** @description why the node failed; null otherwise */
            stateReason: string | null;
            /** @description host name at the node-proxy: <nodeId>.<NODE_DOMAIN> */
            address: string;
            /** @description HTTPS ports of `address`: avalanchego's API, and /status, /logs */
            ports: {
                jsonRpc: number;
                management: number;
            };
            endpoints: components["schemas"]["NodeEndpoints"];
            /** @description Basic user name of the node */
            nodeUser: string;
            /** @description Basic password of the node; shown once, in the answer that created it */
            nodePass?: string;
            /** @description ISO 8601 UTC */
            createdAt: string;
            registration: components["schemas"]["Registration"];
        };
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
        /** @description the validator on the P-chain, read from its own node */
        Registration: {
            /**
             * @description unregistered: the P-chain has never listed it; pending: registered, start time to come; validating; ended: its staking period is over; starting: its node is provisioning or bootstrapping, the P-chain is read once it runs (see reason); unknown: the P-chain could not be read through the node (see reason)
             * @enum {string}
             */
            status: "unregistered" | "pending" | "validating" | "ended" | "starting" | "unknown";
            /** @description when the P-chain was read, through the node (answers are reused for a few seconds) */
            checkedAt: string;
            /** @description the transaction that registered it */
            txId?: string;
            /** @description ISO 8601 UTC */
            startTime?: string;
            /** @description end of the staking period; the validator cannot be deleted before it */
            endTime?: string;
            /** @description its own stake, in nAVAX (10^-9 AVAX), as a decimal string */
            stake?: string;
            /** @description stake delegated to it, in nAVAX (10^-9 AVAX), as a decimal string */
            delegatedWeight?: string;
            /** @description own plus delegated stake, in nAVAX (10^-9 AVAX), as a decimal string */
            weight?: string;
            /** @description percent, as the node sees it */
            uptime?: number;
            connected?: boolean;
            /** @description why the status is starting or unknown */
            reason?: string;
        };
        /** @description no body, or {} */
        CreateValidatorRequest: Record<string, never>;
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
