package admin

// BcryptCost lets tests hash passwords quickly.
var BcryptCost = &bcryptCost
