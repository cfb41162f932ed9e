// Links libpangoft2 and libfontconfig (pkg-config's pangoft2); their declarations come with CPango,
// which owns Pango's headers.
