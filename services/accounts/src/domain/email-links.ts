/** The two addresses of an e-mailed action: the API's, and the web console's page when there is one. */
export interface ActionLinks {
  /** The accounts API endpoint the action is a PUT to (curl, `cloud verify <link>`). */
  api: string;
  /** The console page that does it in a browser (`<console>/verify?user=…&token=…`). */
  page?: string;
}

/**
 * Where the links of the verification and password-reset e-mails point: the API at
 * PUBLIC_ACCOUNTS_URL, and, with CONSOLE_URL, the console's page, which is what the e-mail
 * leads with (a person clicks a link; a PUT needs a tool).
 */
export class EmailLinks {
  constructor(
    private readonly accountsUrl: string,
    private readonly consoleUrl?: string,
  ) {}

  verification(userId: string, token: string): ActionLinks {
    return this.links(`users/${userId}/token/${token}`, 'verify', userId, token);
  }

  passwordReset(userId: string, token: string): ActionLinks {
    return this.links(`users/${userId}/password-reset/${token}`, 'reset-password', userId, token);
  }

  private links(apiPath: string, page: string, userId: string, token: string): ActionLinks {
    const api = `${this.accountsUrl.replace(/\/$/, '')}/${apiPath}`;
    if (!this.consoleUrl) return { api };
    const url = new URL(page, `${this.consoleUrl.replace(/\/$/, '')}/`);
    url.searchParams.set('user', userId);
    url.searchParams.set('token', token);
    return { api, page: url.toString() };
  }
}
