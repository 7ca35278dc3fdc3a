import { SetMetadata } from '@nestjs/common';

export const UPLOAD_BUDGET = 'uploadBudget';

// The route stores what its caller uploads: besides its access, the caller's
// upload budgets (UploadThrottle) are reserved from the declared
// Content-Length with the access decision, before the body is read, and
// settled by the route with the bytes it stores.
export const UploadBudget = () => SetMetadata(UPLOAD_BUDGET, true);
