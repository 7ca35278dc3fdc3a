// How the gateway hands a request it let in to the media app: the same
// method, path, query and body, with the caller's account (when a token
// came with it) in this header. The media app believes the header because
// only the gateway can reach it (its network policy); the gateway removes
// any such header a client sent.
export const forwardedAccountHeader = 'x-formline-account-id';
