// Generated from the accounts service's OpenAPI document by test/generated-types.test.ts; do not edit.
export interface paths {
    "/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign up; sends the verification e-mail */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SignUpRequest"];
                };
            };
            responses: {
                /** @description the new user */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UserProfile"];
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
                /** @description the e-mail address is taken (Conflict) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description too many sign-ups from this client address (TooManyRequests) */
                429: {
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
    "/users/{userId}/token/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Verify the e-mail address with the token from the e-mail */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description user id or e-mail address */
                    userId: string;
                    token: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the verified user */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UserProfile"];
                    };
                };
                /** @description no such user, or the token is wrong, used or expired */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description already verified (UserVerified) */
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
    "/users/{userId}/verification": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a new verification e-mail (the old token stops working) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description user id or e-mail address */
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description sent */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description no such user */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description already verified (UserVerified) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description one was sent moments ago (TooManyRequests) */
                429: {
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
    "/users/password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask for a password-reset e-mail; 202 whether or not the address has an account */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["PasswordResetRequest"];
                };
            };
            responses: {
                /** @description accepted (an e-mail is sent if the address has an account) */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
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
                /** @description too many requests for this e-mail address or from this client address (TooManyRequests) */
                429: {
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
    "/users/{userId}/password-reset/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set a new password with the token of a password-reset e-mail; every token issued before stops working and every client key is deleted */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description user id or e-mail address */
                    userId: string;
                    token: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["PasswordReset"];
                };
            };
            responses: {
                /** @description the password is changed (log in with it), and what ended */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PasswordResetDone"];
                    };
                };
                /** @description the token is wrong, used or expired (InvalidResetToken), or the password is weak (InvalidInput) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description too many requests from this client address (TooManyRequests) */
                429: {
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
    "/users/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The profile */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the profile */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UserProfile"];
                    };
                };
                /** @description missing, invalid, expired or revoked account token */
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
        /** Delete your account (confirmed with the password): its client keys and events go too, and every token of it stops working */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["DeleteUserRequest"];
                };
            };
            responses: {
                /** @description deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
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
                /** @description missing, invalid, expired or revoked account token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the password is wrong (Forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description too many wrong passwords (TooManyRequests) */
                429: {
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
        /** Change displayName and billingAddress (fields given are replaced) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["UpdateProfileRequest"];
                };
            };
            responses: {
                /** @description the updated profile */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UserProfile"];
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
                /** @description missing, invalid, expired or revoked account token */
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
        trace?: never;
    };
    "/users/me/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change the password; tokens issued before stop working and every client key is deleted; a fresh account token is returned */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ChangePasswordRequest"];
                };
            };
            responses: {
                /** @description a new account access token, and what ended */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PasswordChanged"];
                    };
                };
                /** @description weak or unchanged new password (InvalidInput) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description missing, invalid, expired or revoked account token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the old password is wrong (Forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description too many wrong passwords (TooManyRequests) */
                429: {
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
    "/auth": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in with HTTP Basic credentials; returns an Account Access Token (12 hours)
         * @description With two-factor login on, the body carries `{"code": "123456"}`: the code of the authenticator app (the current 30-second step or the one before or after, each step once) or an unused recovery code. Without it the answer is 401 `TwoFactorRequired`, so a client knows to ask for it; a wrong code is 401 `InvalidTwoFactorCode`. Both count as failed logins.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["LoginRequest"];
                };
            };
            responses: {
                /** @description the account access token */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AccessToken"];
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
                /** @description wrong user id, e-mail or password (Unauthorized); code missing (TwoFactorRequired) or wrong (InvalidTwoFactorCode) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description e-mail not verified yet (UserNotVerified) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description too many failed logins from this address (TooManyRequests); see the throttle table in the README */
                429: {
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
    "/auth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Trade client credentials for client tokens, or a refresh token for a new access token */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["TokenRequest"];
                };
            };
            responses: {
                /** @description client access token (1 hour) and refresh token (1 year) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClientTokens"];
                    };
                };
                /** @description unknown grantType or missing field (InvalidInput) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description wrong client credentials, or an invalid, expired or revoked refresh token */
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
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Public keys that verify tokens (JWK Set) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the key set */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            keys: {
                                [key: string]: string;
                            }[];
                        };
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
    "/users/me/two-factor": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether two-factor login is on (or enrolled and waiting for its first code), and how many recovery codes are left */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the status */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TwoFactorStatus"];
                    };
                };
                /** @description missing, invalid, expired or revoked account token */
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
        /** Enrol an authenticator (confirmed with the password): a new TOTP secret and its otpauth URI, pending until confirmed */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["TwoFactorEnrolRequest"];
                };
            };
            responses: {
                /** @description the secret, shown only here */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TwoFactorEnrolment"];
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
                /** @description missing, invalid, expired or revoked account token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the password is wrong (Forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description two-factor login is on already (TwoFactorEnabled) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description too many wrong passwords (TooManyRequests) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        /** Turn two-factor login off (confirmed with the password and a code or a recovery code); the secret and recovery codes are deleted */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["TwoFactorDisableRequest"];
                };
            };
            responses: {
                /** @description off */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
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
                /** @description missing, invalid, expired or revoked account token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the password (Forbidden) or the code (InvalidTwoFactorCode) is wrong */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description two-factor login is off (TwoFactorNotEnabled) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description too many wrong passwords or codes (TooManyRequests) */
                429: {
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
    "/users/me/two-factor/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Turn two-factor login on with a first code from the enrolled secret; returns the recovery codes, shown only here. Tokens issued before stop working and every client key is deleted; a fresh account token is returned */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["TwoFactorConfirmRequest"];
                };
            };
            responses: {
                /** @description the recovery codes, a new account access token, and what ended */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RecoveryCodes"];
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
                /** @description missing, invalid, expired or revoked account token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the code is wrong (InvalidTwoFactorCode) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description nothing enrolled (TwoFactorNotPending), or on already (TwoFactorEnabled) */
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
    "/users/me/client-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List client keys (without secrets) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the keys */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClientKeySummary"][];
                    };
                };
                /** @description missing, invalid, expired or revoked account token */
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
        /** Make a client key pair; the secret is shown only here */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the key pair */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClientKey"];
                    };
                };
                /** @description missing, invalid, expired or revoked account token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description too many keys (LimitExceeded) */
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
    "/users/me/client-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a client key; tokens minted from it stop working */
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
                /** @description deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description missing, invalid, expired or revoked account token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no such key of yours */
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
    "/users/me/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Event records of your calls, newest first */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description id of the last event of the previous page */
                    before?: string;
                    service?: string;
                    since?: string;
                    until?: string;
                    /** @description false: leave out the calls a client marked as its own background reads (x-cloud-background: 1, e.g. the console's page loads and refreshes); true: only those; absent: every call */
                    background?: "true" | "false";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description events */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Event"][];
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
                /** @description missing, invalid, expired or revoked account token */
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
        UserProfile: {
            /** @example user-3f1c1c3e-8a55-4a4e-9f51-8f3b8f1c2d10 */
            id: string;
            email: string;
            displayName: string;
            /** @example individual */
            entityType: string;
            /** @description ISO 8601 UTC with milliseconds; null until verified */
            verifiedAt: string | null;
            createdAt: string;
            updatedAt: string;
            billingAddress: components["schemas"]["BillingAddress"];
            /** @description whether logging in needs a two-factor code */
            twoFactor: boolean;
        };
        BillingAddress: {
            country: string;
            zipCode: string;
            address: string;
            state: string;
        };
        Error: {
            /** @example InvalidInput */
            code: string;
            /** @example body.email: must be an e-mail address */
            message: string;
        };
        SignUpRequest: {
            /** Format: email */
            email: string;
            password: string;
            displayName: string;
            billingAddress?: {
                country?: string;
                zipCode?: string;
                address?: string;
                state?: string;
            };
        };
        PasswordResetRequest: {
            /** Format: email */
            email: string;
        };
        PasswordResetDone: {
            ended: components["schemas"]["EndedCredentials"];
            /** @description what happened and what ended, in words */
            message: string;
        };
        /** @description What a new password or turning two-factor login on ended; the owner is e-mailed the same. */
        EndedCredentials: {
            /** @description how many client keys of the account were deleted */
            clientKeys: number;
            /** @description their ids: programs that used them need a new key */
            clientKeyIds: string[];
            /** @description every account, client and refresh token issued before this time stopped working (ISO 8601 UTC) */
            tokensIssuedBefore: string;
        };
        /** @description the new password, with the sign-up rules */
        PasswordReset: {
            password: string;
        };
        UpdateProfileRequest: {
            displayName?: string;
            billingAddress?: {
                country?: string;
                zipCode?: string;
                address?: string;
                state?: string;
            };
        };
        PasswordChanged: {
            /** @description the session's new account access token */
            accessToken: string;
            ended: components["schemas"]["EndedCredentials"];
            /** @description what happened and what ended, in words */
            message: string;
        };
        ChangePasswordRequest: {
            oldPassword: string;
            newPassword: string;
        };
        DeleteUserRequest: {
            password: string;
        };
        AccessToken: {
            accessToken: string;
        };
        LoginRequest: {
            /**
             * @description the second factor, when the account has two-factor login on
             * @example 123456
             */
            code?: string;
        };
        ClientTokens: {
            accessToken: string;
            refreshToken: string;
        };
        TokenRequest: {
            /** @enum {string} */
            grantType: "clientCredentials";
            clientId: string;
            clientSecret: string;
        } | {
            /** @enum {string} */
            grantType: "refreshToken";
            refreshToken: string;
        };
        TwoFactorStatus: {
            enabled: boolean;
            pending: boolean;
            recoveryCodesLeft: number;
        };
        /** @description Pending until confirmed with a code from it. */
        TwoFactorEnrolment: {
            /** @description base32, for typing into an authenticator app */
            secret: string;
            /**
             * @description otpauth://totp/… URI, for a QR code
             * @example otpauth://totp/Cloud%20Nodes:ada%40example.com?issuer=Cloud%20Nodes&secret=…
             */
            uri: string;
        };
        TwoFactorEnrolRequest: {
            password: string;
        };
        /** @description Shown once, here. */
        RecoveryCodes: {
            /** @description single-use codes, each standing in for one TOTP code */
            recoveryCodes: string[];
            /** @description the session's new account access token: every token issued before stopped working */
            accessToken: string;
            ended: components["schemas"]["EndedCredentials"];
            /** @description what happened and what ended, in words */
            message: string;
        };
        TwoFactorConfirmRequest: {
            /**
             * @description the 6-digit code of the authenticator app, or a recovery code
             * @example 123456
             */
            code: string;
        };
        TwoFactorDisableRequest: {
            password: string;
            /**
             * @description the 6-digit code of the authenticator app, or a recovery code
             * @example 123456
             */
            code: string;
        };
        /** @description The secret is shown once, here. */
        ClientKey: {
            clientId: string;
            clientSecret: string;
            createdAt: string;
        };
        ClientKeySummary: {
            id: string;
            createdAt: string;
        };
        Event: {
            id: string;
            user: string;
            /** @example cloud-accounts */
            service: string;
            input: {
                method?: string;
                route?: string;
                resourceId?: string;
            };
            output: {
                startTime: string;
                endTime: string;
                httpStatusCode: number;
                bytesOut: number;
            };
            serviceData: {
                requestId?: string;
                /** @description true when the client marked the call as its own background read (x-cloud-background: 1) */
                background?: boolean;
            };
            createdAt: string;
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
