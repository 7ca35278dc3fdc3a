// How the gateway hands a request it let in to the media app: the same
// method, path, query and body, with the caller's account (when a token
// came with it) in `forwardedAccountHeader`, and the gateway's signature of
// the request (its method, path, account and time, with MEDIA_FORWARDING_KEY)
// in `forwardedSignatureHeader`. The media app serves only a request whose
// signature is valid and recent: its network policy lets only the gateway
// reach it, and the signature means reaching it is not enough. The gateway
// removes any such header a client sent.
export const forwardedAccountHeader = 'x-formline-account-id';
export const forwardedSignatureHeader = 'x-formline-forwarded-signature';
