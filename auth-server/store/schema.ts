/**
 * Kysely's view of the issuer's tables. Column names are snake_case in the database and
 * camelCase here (Kysely's CamelCasePlugin maps them); JSON-valued client columns are text.
 */
import type {
  CodeRow,
  ConsentRow,
  CustomerRow,
  GrantRow,
  InteractionRow,
  RefreshTokenRow,
  SessionRow,
} from './rows.js';

export interface ClientsTable {
  clientId: string;
  secretHash: string | null;
  tokenEndpointAuthMethod: string;
  redirectUris: string;
  postLogoutRedirectUris: string;
  grantTypes: string;
  scope: string | null;
  clientName: string | null;
  metadata: string;
  createdAt: number;
  lastUsedAt: number | null;
}

export interface SigningKeysTable {
  kid: string;
  alg: string;
  generation: number;
  privateJwk: string;
  publicJwk: string;
  createdAt: number;
  activatesAt: number;
  retiresAt: number | null;
}

export interface RevokedAccessTokensTable {
  jti: string;
  expiresAt: number;
}

export interface IssuerDatabase {
  customers: CustomerRow;
  clients: ClientsTable;
  signingKeys: SigningKeysTable;
  interactions: InteractionRow;
  sessions: SessionRow;
  consents: ConsentRow;
  grants: GrantRow;
  codes: CodeRow;
  refreshTokens: RefreshTokenRow;
  revokedAccessTokens: RevokedAccessTokensTable;
}
