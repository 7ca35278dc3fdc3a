import { SetMetadata } from '@nestjs/common';

export const PUBLIC_ROUTE = 'publicRoute';

// An endpoint that takes no credentials of the API's own (the OAuth
// endpoints: they authenticate clients and people in their own ways). Opting
// out of authentication is always this explicit.
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);
