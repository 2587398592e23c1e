/** RFC 5321's lengths, which z.email leaves unchecked: at most 64 characters before the @, 254 in all. */
export const withinEmailLengths = (s: string) => s.length <= 254 && s.lastIndexOf('@') <= 64;
