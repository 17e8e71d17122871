package server

import (
	"net/http"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/store"
)

// ProductVersion is the platform release whose interface the embedded
// platform serves: clients decide by it which endpoints to call (v2
// workbooks at /api/workbooks, job-status v2...), and every one of them is
// served here. It is not a claim to be that product: LicenseHolder says what
// answers.
const ProductVersion = "11.0.0"

// licenseHolder and licenseType are the embedded platform's own: it needs no
// licence, so it answers an evaluation licence without a volume limit.
const (
	licenseHolder = "CN=dapconsole embedded platform"
	licenseType   = "Evaluation"
)

func (s *Server) registerLicenseRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /rest/license-details", s.licenseDetails)
	mux.HandleFunc("GET /license/product-id", s.productID)
}

// productIDOf is the installation's id: the root folder's UUID, made once
// when the data directory is created, so it stays the same across restarts.
func (s *Server) productIDOf(w http.ResponseWriter, r *http.Request) (string, bool) {
	root, err := s.store.FileByID(r.Context(), store.RootID)
	if err != nil {
		writeError(w, err)
		return "", false
	}
	return root.UUID, true
}

// licenseDetails answers the platform's licence body. The licence starts when
// the server started; it ends at Config.LicenseExpires, or never (an empty
// date); the volume consumed is what imports really brought in.
func (s *Server) licenseDetails(w http.ResponseWriter, r *http.Request) {
	id, ok := s.productIDOf(w, r)
	if !ok {
		return
	}
	consumed, err := s.jobs.ImportedBytes(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	out := model.LicenseDetails{
		ProductID: id, ProductVersion: ProductVersion,
		LicenseHolder: licenseHolder, LicenseType: licenseType,
		LicenseStartDate:            s.started.Format(model.DateTimeLayout),
		LicenseVolumePeriodInMonths: 12,
		LicenseVolumeLimitInBytes:   -1,
		TotalVolumeConsumedInBytes:  consumed,
	}
	if !s.cfg.LicenseExpires.IsZero() {
		out.LicenseExpirationDate = s.cfg.LicenseExpires.Format(model.DateTimeLayout)
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) productID(w http.ResponseWriter, r *http.Request) {
	id, ok := s.productIDOf(w, r)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, model.ProductID{ProductID: id, ProductVersion: ProductVersion})
}
