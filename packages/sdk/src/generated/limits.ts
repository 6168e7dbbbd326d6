// Generated from the services' OpenAPI documents by test/generated-types.test.ts; do not edit.

/** The limits of each request body's fields, by service and request schema, as the APIs check them: forms take the same. */
export const LIMITS = {
  "accounts": {
    "ChangePasswordRequest": {
      "oldPassword": {
        "minLength": 1,
        "maxLength": 200
      },
      "newPassword": {
        "minLength": 10,
        "maxLength": 200
      }
    },
    "DeleteUserRequest": {
      "password": {
        "minLength": 1,
        "maxLength": 200
      }
    },
    "LoginRequest": {
      "code": {
        "minLength": 1,
        "maxLength": 32
      }
    },
    "PasswordReset": {
      "password": {
        "minLength": 10,
        "maxLength": 200
      }
    },
    "PasswordResetRequest": {
      "email": {
        "maxLength": 254
      }
    },
    "SignUpRequest": {
      "email": {
        "maxLength": 254
      },
      "password": {
        "minLength": 10,
        "maxLength": 200
      },
      "displayName": {
        "minLength": 1,
        "maxLength": 100
      },
      "billingAddress": {
        "country": {
          "maxLength": 100
        },
        "zipCode": {
          "maxLength": 20
        },
        "address": {
          "maxLength": 300
        },
        "state": {
          "maxLength": 100
        }
      }
    },
    "TwoFactorConfirmRequest": {
      "code": {
        "minLength": 1,
        "maxLength": 32
      }
    },
    "TwoFactorDisableRequest": {
      "password": {
        "minLength": 1,
        "maxLength": 200
      },
      "code": {
        "minLength": 1,
        "maxLength": 32
      }
    },
    "TwoFactorEnrolRequest": {
      "password": {
        "minLength": 1,
        "maxLength": 200
      }
    },
    "UpdateProfileRequest": {
      "displayName": {
        "minLength": 1,
        "maxLength": 100
      },
      "billingAddress": {
        "country": {
          "maxLength": 100
        },
        "zipCode": {
          "maxLength": 20
        },
        "address": {
          "maxLength": 300
        },
        "state": {
          "maxLength": 100
        }
      }
    }
  },
  "nodes": {
    "CreateCredentialRequest": {
      "name": {
        "minLength": 1,
        "maxLength": 64,
        "pattern": "^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$"
      }
    },
    "CreateNodeRequest": {
      "name": {
        "minLength": 1,
        "maxLength": 64
      }
    },
    "CreatePoolRequest": {
      "name": {
        "minLength": 1,
        "maxLength": 64
      },
      "members": {
        "minItems": 1,
        "maxItems": 16,
        "items": {
          "pattern": "^node-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
        }
      },
      "maxLagBlocks": {
        "minimum": 0,
        "maximum": 10000
      }
    },
    "NodeAccessRequest": {
      "ipAllowlist": {
        "maxItems": 100
      },
      "originAllowlist": {
        "maxItems": 100
      },
      "refusedMethods": {
        "maxItems": 200,
        "items": {
          "pattern": "^[A-Za-z][A-Za-z0-9_.]{0,127}$"
        }
      },
      "ratePerSecond": {
        "minimum": 1
      },
      "maxAnswerBytes": {
        "minimum": 4096
      }
    },
    "UpdateNodeRequest": {
      "name": {
        "minLength": 1,
        "maxLength": 64
      }
    },
    "UpdatePoolRequest": {
      "name": {
        "minLength": 1,
        "maxLength": 64
      },
      "members": {
        "minItems": 1,
        "maxItems": 16,
        "items": {
          "pattern": "^node-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
        }
      },
      "maxLagBlocks": {
        "minimum": 0,
        "maximum": 10000
      }
    }
  },
  "staking": {},
  "streams": {
    "CreateStreamRequest": {
      "name": {
        "minLength": 1,
        "maxLength": 64
      },
      "url": {
        "maxLength": 2048
      },
      "addresses": {
        "maxItems": 1000,
        "items": {
          "minLength": 1,
          "maxLength": 128
        }
      },
      "topics": {
        "maxItems": 100,
        "items": {
          "maxLength": 66
        }
      },
      "fromHeight": {
        "minimum": 0
      }
    },
    "UpdateStreamRequest": {
      "name": {
        "minLength": 1,
        "maxLength": 64
      },
      "url": {
        "maxLength": 2048
      }
    }
  }
} as const;
