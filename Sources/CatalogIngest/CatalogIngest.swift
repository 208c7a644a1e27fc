// Walks folders and feeds decoded files into the catalogue.
