import { SetMetadata } from '@nestjs/common';

export const OWNER_CREDENTIALS = 'ownerCredentials';

// An endpoint only the account's owner may call, with their email and
// password (HTTP Basic), never with a token: a token must not be able to mint
// a stronger token, or outlive its own revocation by minting a successor.
export const OwnerCredentials = () => SetMetadata(OWNER_CREDENTIALS, true);
